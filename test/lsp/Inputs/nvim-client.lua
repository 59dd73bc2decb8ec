-- Drives `tmemcheck --lsp` through Neovim's built-in LSP client (headless),
-- for test/lsp/nvim-headless.test. Written for Neovim 0.7.2 (Debian 12):
-- vim.lsp.start_client + vim.lsp.buf_attach_client, no vim.lsp.start.
-- On newer Neovim it uses vim.lsp.start, which does the same.
--
--   TMEMCHECK=<server binary> TMEMCHECK_FILE=<a .cu file> \
--     nvim --headless --clean -c 'luafile nvim-client.lua'
--
-- Optional: TMEMCHECK_HOVER_LINE=<1-based line> also prints the first line
-- of the hover there; TMEMCHECK_TIMEOUT_MS=<ms> replaces the 120 s timeout
-- of each wait.
--
-- Output, one line each, on stdout:
--   DIAG <line1>:<col1> <severity> <code> <message>   (every diagnostic)
--   HOVER <first line of the hover>                    (if asked)
--   APPLIED <title of the quick fix applied>
--   CLEARED                                            (diagnostics empty)
--   FAILED <why>                                       (then exit status 1)

local TIMEOUT_MS = tonumber(os.getenv('TMEMCHECK_TIMEOUT_MS') or '') or 120000

local function out(s)
  io.stdout:write(s .. '\n')
  io.stdout:flush()
end

local function fail(why)
  out('FAILED ' .. tostring(why))
  vim.cmd('cquit 1')
end

local severity_names = { 'error', 'warning', 'information', 'hint' }

-- The tmemcheck diagnostics of a buffer, in the form vim.diagnostic keeps.
local function tmem_diags(bufnr)
  local found = {}
  for _, d in ipairs(vim.diagnostic.get(bufnr)) do
    if d.source == 'tmemcheck' then
      table.insert(found, d)
    end
  end
  table.sort(found, function(a, b)
    if a.lnum ~= b.lnum then return a.lnum < b.lnum end
    return a.col < b.col
  end)
  return found
end

local function main()
  local server = os.getenv('TMEMCHECK')
  local file = os.getenv('TMEMCHECK_FILE')
  if not server or server == '' then error('TMEMCHECK is not set') end
  if not file or file == '' then error('TMEMCHECK_FILE is not set') end
  if vim.fn.executable(server) ~= 1 then error('not executable: ' .. server) end
  if vim.fn.filereadable(file) ~= 1 then error('not readable: ' .. file) end
  file = vim.fn.fnamemodify(file, ':p')

  vim.cmd('edit ' .. vim.fn.fnameescape(file))
  local bufnr = vim.api.nvim_get_current_buf()

  -- The diagnostics exactly as the server published them, to send back in
  -- codeAction's context (vim.diagnostic keeps byte columns, not UTF-16).
  local published = {}
  local uri = vim.uri_from_bufnr(bufnr)
  local exited = nil

  local config = {
    name = 'tmemcheck',
    cmd = { server, '--lsp' },
    root_dir = vim.fn.fnamemodify(file, ':h'),
    get_language_id = function() return 'cuda-cpp' end,
    handlers = {
      ['textDocument/publishDiagnostics'] = function(err, result, ctx, cfg)
        if result and result.uri == uri then
          published = result.diagnostics or {}
        end
        return vim.lsp.handlers['textDocument/publishDiagnostics'](
          err, result, ctx, cfg)
      end,
    },
    on_exit = function(code, signal)
      exited = 'the server exited (code ' .. tostring(code) .. ', signal ' ..
               tostring(signal) .. ')'
    end,
  }

  local client_id
  if vim.lsp.start then
    client_id = vim.lsp.start(config, { bufnr = bufnr })
  else
    client_id = vim.lsp.start_client(config)
    if client_id and not vim.lsp.buf_attach_client(bufnr, client_id) then
      error('could not attach the client to the buffer')
    end
  end
  if not client_id then error('could not start ' .. server .. ' --lsp') end

  local function wait_for(what, cond)
    local ok = vim.wait(TIMEOUT_MS, function()
      return exited ~= nil or cond()
    end, 50)
    if exited then error(exited .. ' while waiting for ' .. what) end
    if not ok then error('timed out after ' .. TIMEOUT_MS / 1000 ..
                         ' s waiting for ' .. what) end
  end

  local client
  wait_for('initialize', function()
    client = vim.lsp.get_client_by_id(client_id)
    return client ~= nil and client.initialized
  end)

  wait_for('diagnostics', function() return #tmem_diags(bufnr) > 0 end)
  local diags = tmem_diags(bufnr)
  for _, d in ipairs(diags) do
    out(string.format('DIAG %d:%d %s %s %s', d.lnum + 1, d.col + 1,
                      severity_names[d.severity] or tostring(d.severity),
                      tostring(d.code), d.message))
  end

  local hover_line = tonumber(os.getenv('TMEMCHECK_HOVER_LINE') or '')
  if hover_line then
    local text = vim.api.nvim_buf_get_lines(bufnr, hover_line - 1,
                                            hover_line, true)[1]
    local character = (text:find('%S') or 1) - 1
    local responses = vim.lsp.buf_request_sync(bufnr, 'textDocument/hover', {
      textDocument = { uri = uri },
      position = { line = hover_line - 1, character = character },
    }, TIMEOUT_MS)
    local r = responses and responses[client_id]
    if not r then error('no hover response') end
    if r.err or r.error then error('hover: ' .. vim.inspect(r.err or r.error)) end
    local contents = r.result and r.result.contents
    local value = type(contents) == 'table' and (contents.value or contents[1])
                  or contents
    if type(value) == 'table' then value = value.value end
    if type(value) ~= 'string' then error('hover has no text: ' ..
                                          vim.inspect(r.result)) end
    out('HOVER ' .. (value:match('[^\n]*')))
  end

  -- The quick fix for the first diagnostic, asked for its whole line.
  local first = diags[1]
  local line = first.lnum
  local context = {}
  for _, p in ipairs(published) do
    if p.range.start.line == line then table.insert(context, p) end
  end
  local text = vim.api.nvim_buf_get_lines(bufnr, line, line + 1, true)[1]
  local responses = vim.lsp.buf_request_sync(bufnr, 'textDocument/codeAction', {
    textDocument = { uri = uri },
    range = { start = { line = line, character = 0 },
              ['end'] = { line = line, character = #text } },
    context = { diagnostics = context, only = { 'quickfix' } },
  }, TIMEOUT_MS)
  local r = responses and responses[client_id]
  if not r then error('no codeAction response') end
  if r.err or r.error then error('codeAction: ' .. vim.inspect(r.err or r.error)) end
  local action
  for _, a in ipairs(r.result or {}) do
    if a.kind == 'quickfix' and a.edit then
      action = a
      break
    end
  end
  if not action then error('no quickfix with an edit: ' .. vim.inspect(r.result)) end

  local before = vim.api.nvim_buf_get_changedtick(bufnr)
  vim.lsp.util.apply_workspace_edit(action.edit, client.offset_encoding)
  if vim.api.nvim_buf_get_changedtick(bufnr) == before then
    error('the edit did not change the buffer: ' .. vim.inspect(action.edit))
  end
  out('APPLIED ' .. action.title)

  -- The change reaches the server as didChange; its new analysis is clean.
  wait_for('the diagnostics to clear', function()
    return #tmem_diags(bufnr) == 0
  end)
  out('CLEARED')

  vim.lsp.stop_client(client_id)
  vim.wait(5000, function() return exited ~= nil end, 50)
  -- The edited buffer is not written back: the test's copy stays as it was.
  vim.cmd('qall!')
end

local ok, err = pcall(main)
if not ok then
  -- Without the "file:line: " that error() puts in front.
  fail((tostring(err):gsub('^[^\n]-%.lua:%d+: ', ''):gsub('\n', ' | ')))
end
