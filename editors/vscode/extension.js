// Starts `tmemcheck --lsp` for CUDA files (docs/editors.md).
'use strict';

const vscode = require('vscode');
const { LanguageClient, TransportKind } = require('vscode-languageclient/node');

let client;

function createClient(context) {
  const config = vscode.workspace.getConfiguration('tmemcheck');
  const command = config.get('path') || 'tmemcheck';
  const args = ['--lsp', ...config.get('args', [])];
  const serverOptions = {
    command,
    args,
    transport: TransportKind.stdio,
  };
  const clientOptions = {
    documentSelector: [
      { scheme: 'file', language: 'cuda-cpp' },
      { scheme: 'file', language: 'cuda' },
      { scheme: 'file', pattern: '**/*.{cu,cuh}' },
    ],
    // The `tmemcheck` section (checks) goes to the server as
    // workspace/didChangeConfiguration, now and on every change. No
    // fileEvents: the server registers its own watchers for
    // .tmemcheck.yaml and compile_commands.json, and a second set here
    // would report every change twice.
    synchronize: {
      configurationSection: 'tmemcheck',
    },
    initializationOptions: { checks: config.get('checks', '') },
  };
  return new LanguageClient('tmemcheck', 'tmemcheck', serverOptions,
                            clientOptions);
}

async function start(context) {
  client = createClient(context);
  try {
    await client.start();
  } catch (err) {
    vscode.window.showErrorMessage(
        `tmemcheck: could not start the language server ` +
        `(tmemcheck.path is "${vscode.workspace.getConfiguration('tmemcheck').get('path')}"): ${err.message || err}`);
  }
}

async function restart(context) {
  if (client) {
    const old = client;
    client = undefined;
    try {
      await old.stop();
    } catch (err) {
      // A server that failed to start cannot be stopped; start anew.
    }
  }
  await start(context);
}

async function activate(context) {
  context.subscriptions.push(
      vscode.commands.registerCommand('tmemcheck.restart',
                                      () => restart(context)),
      // The command line changes only with a new server process.
      vscode.workspace.onDidChangeConfiguration((e) => {
        if (e.affectsConfiguration('tmemcheck.path') ||
            e.affectsConfiguration('tmemcheck.args'))
          restart(context);
      }));
  await start(context);
}

function deactivate() {
  return client ? client.stop() : undefined;
}

module.exports = { activate, deactivate };
