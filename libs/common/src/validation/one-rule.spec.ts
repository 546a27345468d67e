import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import * as ts from 'typescript';

// One email rule and one http(s) URL rule (libs/common/src/validation/email.ts and http-url.ts):
// a second regex or a class-validator email/URL check elsewhere would drift from them.
const ROOT = join(__dirname, '../../../..');
const RULE_FILES = [
  'libs/common/src/validation/email.ts',
  'libs/common/src/validation/http-url.ts',
];
/** Regexes that name a scheme without deciding what a URL is, and why. */
const ALLOWED: Record<string, string> = {
  'apps/api/src/domains/dto/domain-validators.ts': 'the scheme field alone (`https` or `http`)',
  'libs/signatures/src/parts.ts': 'drops the scheme of a URL for display',
};
const EMAIL_LIKE = /@.*\\\./;
const URL_LIKE = /https\?|https?:(\\\/|\/)/;
const BANNED_IMPORTS = new Set(['isEmail', 'IsEmail', 'isURL', 'IsUrl']);

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) {
      return entry.name === 'node_modules' || entry.name === 'migrations' ? [] : sources(path);
    }
    return entry.name.endsWith('.ts') && !entry.name.endsWith('.spec.ts') ? [path] : [];
  });
}

function findings(path: string): string[] {
  const text = readFileSync(path, 'utf8');
  if (!/@|http|class-validator/.test(text.replace(/^import .* from '@app\/.*$/gm, ''))) {
    return [];
  }
  const file = ts.createSourceFile(path, text, ts.ScriptTarget.Latest);
  const found: string[] = [];
  const visit = (node: ts.Node): void => {
    if (ts.isRegularExpressionLiteral(node)) {
      const source = node.text.slice(1, node.text.lastIndexOf('/'));
      if (EMAIL_LIKE.test(source) || URL_LIKE.test(source)) found.push(node.text);
    }
    if (
      ts.isImportDeclaration(node) &&
      ts.isStringLiteral(node.moduleSpecifier) &&
      node.moduleSpecifier.text === 'class-validator'
    ) {
      const names = node.importClause?.namedBindings;
      if (names && ts.isNamedImports(names)) {
        for (const name of names.elements) {
          if (BANNED_IMPORTS.has(name.name.text)) found.push(`${name.name.text} (class-validator)`);
        }
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(file);
  return found;
}

describe('one email rule and one URL rule', () => {
  it('finds no email or http(s) URL regex, nor class-validator email/URL check, outside them', () => {
    const offenders = ['apps', 'libs']
      .flatMap((top) => sources(join(ROOT, top)))
      .map((path) => relative(ROOT, path).split('\\').join('/'))
      .filter((path) => !RULE_FILES.includes(path) && !(path in ALLOWED))
      .flatMap((path) => findings(join(ROOT, path)).map((what) => `${path}: ${what}`));
    expect(offenders).toEqual([]);
  });

  it('still sees the rules themselves (the scan works)', () => {
    expect(findings(join(ROOT, RULE_FILES[0])).length).toBeGreaterThan(0);
    expect(findings(join(ROOT, RULE_FILES[1])).length).toBeGreaterThan(0);
  });
});
