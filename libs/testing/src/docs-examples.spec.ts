import { commandsOf, problemsOf, scanFences, scriptOf, splitComment } from './docs-examples';

const DOC = `# Title

\`\`\`sh
export LINKDOCK_URL=http://localhost:3000 LINKDOCK_KEY=ld_...
ID=$(curl -s -F name=a \\
  $LINKDOCK_URL/v1/projects | jq -r .data.id)   # 201 {"data":{"id":…}}
curl -i $LINKDOCK_URL/spring
# 302 Location: https://example.com/spring
npm run cli -- plan:list
\`\`\`

1. In a list:

   \`\`\`sh
   curl -F color=#0e23cc "$LINKDOCK_URL/v1/x?a=1#b"
   \`\`\`

<!-- docs-test: skip (needs Docker) -->

\`\`\`sh
docker compose up
\`\`\`

\`\`\`\`md
\`\`\`sh
not a fence of its own
\`\`\`
\`\`\`\`
`;

describe(scanFences.name, () => {
  const { fences, problems } = scanFences('doc.md', DOC);

  it('finds fences, indented ones in list items too, with their language and skip reason', () => {
    expect(fences.map((f) => [f.line, f.lang, f.skip, f.lines[0]])).toEqual([
      [4, 'sh', null, 'export LINKDOCK_URL=http://localhost:3000 LINKDOCK_KEY=ld_...'],
      [15, 'sh', null, 'curl -F color=#0e23cc "$LINKDOCK_URL/v1/x?a=1#b"'],
      [21, 'sh', 'needs Docker', 'docker compose up'],
      [25, 'md', null, '```sh'],
    ]);
    expect(problems).toEqual([]);
  });

  it('reports a marker that is misspelt or not right before a fence', () => {
    const text =
      '<!-- docs-test: skipp -->\n\n<!-- docs-test: skip (x) -->\ntext\n\n```sh\nls\n```\n';
    expect(scanFences('d.md', text).problems).toEqual([
      'd.md:1: a docs-test marker reads <!-- docs-test: skip (why) -->',
      'd.md:3: a skip marker comes right before the fence it skips',
    ]);
  });
});

describe(commandsOf.name, () => {
  const [first, listed] = scanFences('doc.md', DOC).fences;

  it('joins continued lines and reads the status from the trailing comment or the line under', () => {
    expect(
      commandsOf(first).map((c) => [c.where, c.lines.length, c.runsCurl, c.status, c.location]),
    ).toEqual([
      ['doc.md:4', 1, false, null, null],
      ['doc.md:5', 2, true, 201, null],
      ['doc.md:7', 1, true, 302, 'https://example.com/spring'],
      ['doc.md:9', 1, false, null, null],
    ]);
  });

  it('finds no status where there is none, a # inside a word or quotes being no comment', () => {
    expect(commandsOf(listed).map((c) => [c.runsCurl, c.status])).toEqual([[true, null]]);
    expect(problemsOf([listed])).toEqual([
      'doc.md:15: say the status curl answers in its comment (# 200 …)',
    ]);
  });
});

describe(splitComment.name, () => {
  it.each([
    ['curl -F c=#0e23cc x   # 201 ok', 'curl -F c=#0e23cc x   ', '# 201 ok'],
    [`echo '# not' "a # b" \\# c`, `echo '# not' "a # b" \\# c`, null],
    ['# only', '', '# only'],
  ])('splits %p', (line, code, comment) => {
    expect(splitComment(line)).toEqual({ code, comment });
  });
});

describe(scriptOf.name, () => {
  it('puts the server and key in place of the placeholders, and the status before each command', () => {
    const [first] = scanFences('doc.md', DOC).fences;
    const script = scriptOf([first], 'http://localhost:4567', 'ld_KEY');
    expect(script.split('\n').slice(0, 4)).toEqual([
      "__docs_expect '' 'doc.md:4' ''",
      'export LINKDOCK_URL=http://localhost:4567 LINKDOCK_KEY=ld_KEY',
      "__docs_expect '201' 'doc.md:5' ''",
      'ID=$(curl -s -F name=a \\',
    ]);
    expect(problemsOf([first])).toEqual([]);
  });

  it('refuses a hard-coded address or key outside comments', () => {
    const [fence] = scanFences(
      'd.md',
      '```sh\ncurl http://localhost:3000/v1/user   # 200 "http://localhost:3000/x"\n```\n',
    ).fences;
    expect(problemsOf([fence])).toEqual([
      "d.md:2: use $LINKDOCK_URL and $LINKDOCK_KEY, set once by `export LINKDOCK_URL=http://localhost:3000 LINKDOCK_KEY=ld_...` at the top of the document's first block",
    ]);
  });
});
