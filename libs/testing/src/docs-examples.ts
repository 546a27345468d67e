/*
 * The shell examples of the Markdown docs, as test/docs-examples.e2e-spec.ts runs them. No
 * Markdown parser is installed, so fences are found by a scanner that follows CommonMark's rules
 * for them: an opening run of three or more backticks or tildes (indented, inside list items), the
 * info string's first word as the language, a closing run of the same character at least as long.
 *
 * The conventions the docs follow, and this file checks:
 * - ```sh blocks run, in order, one shell session a document; other languages are never run.
 * - `<!-- docs-test: skip (reason) -->` as the last line before a fence keeps it from running.
 * - A document sets `export LINKDOCK_URL=http://localhost:3000 LINKDOCK_KEY=ld_...` once, in its
 *   first block; the test puts its server and key in place of those two values, and nowhere else
 *   (the shell runs with `set -u`, so a document that uses them without setting them fails).
 * - Every command that runs curl says the HTTP status it answers in its comment, on its last
 *   line or the comment line under it: `# 201 {"data":{"id":…}}`; `# 302 Location: URL` checks
 *   the Location header too.
 */

export const URL_PLACEHOLDER = 'LINKDOCK_URL=http://localhost:3000';
export const KEY_PLACEHOLDER = 'LINKDOCK_KEY=ld_...';

export interface Fence {
  file: string;
  /** 1-based line of the first line inside the fence. */
  line: number;
  lang: string;
  lines: string[];
  /** The reason of a skip marker right before the fence, or null. */
  skip: string | null;
}

export interface Command {
  /** `file:line` of its first line. */
  where: string;
  /** Its physical lines, continuations included. */
  lines: string[];
  runsCurl: boolean;
  /** The documented HTTP status of its curl, or null when its comment names none. */
  status: number | null;
  /** The documented Location header (`# 302 Location: https://…`), or null. */
  location: string | null;
}

const OPEN = /^(\s*)(`{3,}|~{3,})\s*([^\s`]*)[^`]*$/;
const SKIP = /^\s*<!--\s*docs-test:\s*skip\s*\((.+)\)\s*-->\s*$/;
const MARKER = /<!--\s*docs-test/;
const SHELL = new Set(['sh', 'bash', 'shell']);

/** Every fenced block of a Markdown text, and the problems of its skip markers. */
export function scanFences(file: string, text: string): { fences: Fence[]; problems: string[] } {
  const lines = text.split('\n');
  const fences: Fence[] = [];
  const problems: string[] = [];
  let skip: string | null = null;
  for (let i = 0; i < lines.length; i += 1) {
    const open = OPEN.exec(lines[i]);
    if (open) {
      const [, indent, run, lang] = open;
      const close = new RegExp(`^\\s*${run[0] === '`' ? '`' : '~'}{${run.length},}\\s*$`);
      const body: string[] = [];
      let end = i + 1;
      while (end < lines.length && !close.test(lines[end])) {
        body.push(stripIndent(lines[end], indent.length));
        end += 1;
      }
      fences.push({ file, line: i + 2, lang: lang.toLowerCase(), lines: body, skip });
      skip = null;
      i = end;
    } else if (SKIP.test(lines[i])) {
      skip = SKIP.exec(lines[i])?.[1].trim() ?? null;
    } else if (MARKER.test(lines[i])) {
      problems.push(`${file}:${i + 1}: a docs-test marker reads <!-- docs-test: skip (why) -->`);
    } else if (lines[i].trim() !== '' && skip !== null) {
      problems.push(`${file}:${i}: a skip marker comes right before the fence it skips`);
      skip = null;
    }
  }
  return { fences, problems };
}

function stripIndent(line: string, width: number): string {
  let n = 0;
  while (n < width && line[n] === ' ') n += 1;
  return line.slice(n);
}

export function isShell(fence: Fence): boolean {
  return SHELL.has(fence.lang);
}

/** Fences that are not shell but hold a command line a reader would run (they must be `sh`). */
export function looksLikeCommands(fence: Fence): boolean {
  return !isShell(fence) && fence.lines.some((l) => /^\s*(curl|npm|node|docker)\s/.test(l));
}

/**
 * The commands of a block: physical lines joined by trailing backslashes, each with the status
 * its comment documents (its own trailing comment, or the comment lines right under it).
 */
export function commandsOf(fence: Fence): Command[] {
  const commands: Command[] = [];
  let last: Command | null = null;
  for (let i = 0; i < fence.lines.length; i += 1) {
    const first = i;
    const lines = [fence.lines[i]];
    while (lines[lines.length - 1].endsWith('\\') && i + 1 < fence.lines.length) {
      i += 1;
      lines.push(fence.lines[i]);
    }
    const where = `${fence.file}:${fence.line + first}`;
    const trimmed = lines[0].trim();
    if (trimmed === '') {
      last = null;
      continue;
    }
    if (trimmed.startsWith('#')) {
      if (last && last.runsCurl && last.status === null) document(last, trimmed);
      continue;
    }
    const code = lines.map((l) => splitComment(l).code).join('\n');
    const comment = splitComment(lines[lines.length - 1]).comment;
    const command: Command = {
      where,
      lines,
      runsCurl: /(^|[\s;|&(])curl\s/.test(code),
      status: null,
      location: null,
    };
    if (comment !== null) document(command, comment);
    commands.push(command);
    last = command;
  }
  return commands;
}

function document(command: Command, comment: string): void {
  const status = /^#\s*([1-5]\d\d)(?:\s|$)/.exec(comment);
  if (status) {
    command.status = Number(status[1]);
    command.location = /\bLocation: (\S+)/.exec(comment)?.[1] ?? null;
  }
}

/** A line's code and its trailing comment (`#` after a blank, outside quotes), as bash reads it. */
export function splitComment(line: string): { code: string; comment: string | null } {
  let quote: string | null = null;
  for (let i = 0; i < line.length; i += 1) {
    const c = line[i];
    if (quote) {
      if (c === '\\' && quote === '"') i += 1;
      else if (c === quote) quote = null;
    } else if (c === '\\') {
      i += 1;
    } else if (c === "'" || c === '"') {
      quote = c;
    } else if (c === '#' && (i === 0 || /\s/.test(line[i - 1]))) {
      return { code: line.slice(0, i), comment: line.slice(i) };
    }
  }
  return { code: line, comment: null };
}

function quote(value: string): string {
  return `'${value.replaceAll("'", `'\\''`)}'`;
}

/**
 * One document's runnable blocks as a bash script: each command preceded by the status its curl
 * must answer, the placeholders replaced by the server's URL and key.
 */
export function scriptOf(fences: Fence[], url: string, key: string): string {
  const out: string[] = [];
  for (const fence of fences) {
    for (const command of commandsOf(fence)) {
      const status = command.status === null ? '' : String(command.status);
      out.push(
        `__docs_expect ${quote(status)} ${quote(command.where)} ${quote(command.location ?? '')}`,
      );
      for (const line of command.lines) {
        out.push(
          line
            .replace(URL_PLACEHOLDER, `LINKDOCK_URL=${url}`)
            .replace(KEY_PLACEHOLDER, `LINKDOCK_KEY=${key}`),
        );
      }
    }
  }
  return `${out.join('\n')}\n`;
}

/** What a runnable block breaks of the conventions above: one line a problem. */
export function problemsOf(fences: Fence[]): string[] {
  const problems: string[] = [];
  for (const fence of fences) {
    // Comments may show answers as a default install gives them (`"http://localhost:3000/…"`).
    const code = fence.lines.map((line) => splitComment(line).code).join('\n');
    const withoutPlaceholders = code.replace(URL_PLACEHOLDER, '').replace(KEY_PLACEHOLDER, '');
    if (/localhost:3000|ld_\.\.\./.test(withoutPlaceholders)) {
      problems.push(
        `${fence.file}:${fence.line}: use $LINKDOCK_URL and $LINKDOCK_KEY, set once by ` +
          `\`export ${URL_PLACEHOLDER} ${KEY_PLACEHOLDER}\` at the top of the document's first block`,
      );
    }
    for (const command of commandsOf(fence)) {
      if (command.runsCurl && command.status === null) {
        problems.push(`${command.where}: say the status curl answers in its comment (# 200 …)`);
      }
    }
  }
  return problems;
}
