import fs from 'node:fs';
import path from 'node:path';
import ts from 'typescript';

/** A regex written in the source: a literal, or `new RegExp(...)` / `RegExp(...)` with a literal pattern (and flags). */
export interface RegexLiteral {
  file: string;
  line: number;
  source: string;
  flags: string;
}

/** The text of a string literal or a template without substitutions; undefined for anything computed. */
function literalText(node: ts.Node | undefined): string | undefined {
  if (node && (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node))) return node.text;
  return undefined;
}

/** `new RegExp('a+', 'g')` or `RegExp('a+')` with a literal pattern: the pattern and flags, else undefined. */
function constructedRegex(node: ts.Node): { source: string; flags: string } | undefined {
  if (!ts.isNewExpression(node) && !ts.isCallExpression(node)) return undefined;
  if (!ts.isIdentifier(node.expression) || node.expression.text !== 'RegExp') return undefined;
  const [pattern, flags] = node.arguments ?? [];
  const source = literalText(pattern);
  if (source === undefined) return undefined;
  const flagText = flags === undefined ? '' : literalText(flags);
  return flagText === undefined ? undefined : { source, flags: flagText };
}

/**
 * Every regex in `code`, read with the TypeScript compiler's parser (never a regex over the
 * source: a `/` in a string, a comment or a division is not a regex), `file` as it is reported.
 */
export function regexLiteralsIn(file: string, code: string): RegexLiteral[] {
  const sourceFile = ts.createSourceFile(file, code, ts.ScriptTarget.Latest, true, ts.ScriptKind.TS);
  const found: RegexLiteral[] = [];
  const lineOf = (node: ts.Node) => sourceFile.getLineAndCharacterOfPosition(node.getStart(sourceFile)).line + 1;
  const visit = (node: ts.Node) => {
    if (ts.isRegularExpressionLiteral(node)) {
      const end = node.text.lastIndexOf('/');
      found.push({ file, line: lineOf(node), source: node.text.slice(1, end), flags: node.text.slice(end + 1) });
    } else {
      const constructed = constructedRegex(node);
      if (constructed) found.push({ file, line: lineOf(node), ...constructed });
    }
    ts.forEachChild(node, visit);
  };
  visit(sourceFile);
  return found;
}

/** The TypeScript files under `folders` (relative to the working directory), sorted, as repository paths. */
export function typeScriptFilesUnder(folders: string[]): string[] {
  const files: string[] = [];
  const walk = (dir: string) => {
    for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) walk(full);
      else if (entry.name.endsWith('.ts')) files.push(full.split(path.sep).join('/'));
    }
  };
  for (const folder of folders) walk(folder);
  return files.sort();
}
