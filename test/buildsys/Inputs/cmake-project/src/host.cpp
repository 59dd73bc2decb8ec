// Host code: not analysed.
int main() { return 0; }
