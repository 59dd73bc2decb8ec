#!/usr/bin/env python3
"""Checks that a file is one well-formed HTML page and nothing else.

Usage: check_html.py page.html
The file must start with <!DOCTYPE html>, end with </html> (and a line
break), every element must be closed in order (void elements and
self-closed SVG elements aside), and no text may come before <html> or
after </html>. Prints "html ok: N bytes" and then, for FileCheck, one line
per finding outline on the maps: "finding <data-check> x=<x> width=<w>:
<title>", or the first problem, exit 1.
"""
import sys
from html.parser import HTMLParser

VOID = {"meta", "br", "img", "input", "link", "hr", "col", "wbr", "area",
        "base", "source", "track", "embed", "param"}


class Page(HTMLParser):
    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.stack = []
        self.problems = []
        self.seen_html = False
        self.closed_html = False
        self.findings = []
        self.title_of = None
        self.title = None

    def handle_starttag(self, tag, attrs):
        if self.closed_html:
            self.problems.append("<%s> after </html>" % tag)
        if tag == "html":
            self.seen_html = True
        elif not self.seen_html:
            self.problems.append("<%s> before <html>" % tag)
        attrs = dict(attrs)
        if tag == "rect" and attrs.get("class") == "finding":
            self.findings.append([attrs.get("data-check"), attrs.get("x"),
                                  attrs.get("width"), ""])
            self.title_of = self.findings[-1]
        if tag == "title" and self.title_of is not None:
            self.title = []
        if tag not in VOID:
            self.stack.append(tag)

    def handle_startendtag(self, tag, attrs):
        if not self.seen_html or self.closed_html:
            self.problems.append("<%s/> outside <html>" % tag)

    def handle_endtag(self, tag):
        if not self.stack or self.stack[-1] != tag:
            self.problems.append("</%s> closes %s" % (
                tag, "<%s>" % self.stack[-1] if self.stack else "nothing"))
            return
        self.stack.pop()
        if tag == "title" and self.title is not None:
            self.title_of[3] = "".join(self.title)
            self.title = None
            self.title_of = None
        if tag == "html":
            self.closed_html = True

    def handle_data(self, data):
        if self.title is not None:
            self.title.append(data)
        if (not self.seen_html or self.closed_html) and data.strip():
            self.problems.append("text outside <html>: %r" % data.strip()[:60])


def main():
    text = open(sys.argv[1], encoding="utf-8").read()
    if not text.startswith("<!DOCTYPE html>\n"):
        print("html invalid: does not start with <!DOCTYPE html>: %r"
              % text[:60])
        sys.exit(1)
    if not text.endswith("</html>\n"):
        print("html invalid: does not end with </html>: %r" % text[-60:])
        sys.exit(1)
    page = Page()
    page.feed(text)
    page.close()
    if page.stack:
        page.problems.append("unclosed: %s" % " ".join(page.stack))
    if page.problems:
        print("html invalid: " + "; ".join(page.problems[:5]))
        sys.exit(1)
    print("html ok: %d bytes" % len(text.encode("utf-8")))
    for check, x, width, title in page.findings:
        print("finding %s x=%s width=%s: %s" % (check, x, width, title))


main()
