import fs from 'node:fs';
import path from 'node:path';
import ts from 'typescript';

/** How an environment variable is spelled: upper case, digits and underscores (PORT, SHIPGATE_DATA_DIR). */
const ENV_NAME = /^[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)*$/;

/** `env`, `process.env`, or any name ending in env (`cleanedEnv`): what the loader reads variables from. */
function isEnvObject(node: ts.Expression): boolean {
  if (ts.isIdentifier(node)) return /env$/i.test(node.text);
  return (
    ts.isPropertyAccessExpression(node) &&
    node.name.text === 'env' &&
    ts.isIdentifier(node.expression) &&
    node.expression.text === 'process'
  );
}

/** zod's object builders: the keys of the shape given to them are what a parsed env may hold. */
const SHAPE_BUILDERS = new Set(['object', 'strictObject', 'looseObject', 'extend']);

function propertyName(name: ts.PropertyName | ts.BindingName | undefined): string | undefined {
  if (name && (ts.isIdentifier(name) || ts.isStringLiteral(name))) return name.text;
  return undefined;
}

/**
 * The environment variables one source file reads: keys of zod object shapes (`z.object({PORT: ...})`),
 * `env.X`, `env['X']`, `process.env.X`, and `const { X } = env`. Only names spelled like variables count.
 */
export function envVarsReadIn(source: string, fileName = 'load-config.ts'): string[] {
  const file = ts.createSourceFile(fileName, source, ts.ScriptTarget.Latest, true, ts.ScriptKind.TS);
  const names = new Set<string>();
  const visit = (node: ts.Node): void => {
    if (ts.isCallExpression(node) && ts.isPropertyAccessExpression(node.expression) && SHAPE_BUILDERS.has(node.expression.name.text)) {
      const shape = node.arguments[0];
      if (shape && ts.isObjectLiteralExpression(shape)) {
        for (const property of shape.properties) {
          const name = propertyName(property.name);
          if (name) names.add(name);
        }
      }
    }
    if (ts.isPropertyAccessExpression(node) && isEnvObject(node.expression)) names.add(node.name.text);
    if (ts.isElementAccessExpression(node) && isEnvObject(node.expression) && ts.isStringLiteralLike(node.argumentExpression)) {
      names.add(node.argumentExpression.text);
    }
    if (ts.isVariableDeclaration(node) && node.initializer && isEnvObject(node.initializer) && ts.isObjectBindingPattern(node.name)) {
      for (const element of node.name.elements) {
        const name = propertyName(element.propertyName ?? element.name);
        if (name) names.add(name);
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(file);
  return [...names].filter((name) => ENV_NAME.test(name)).sort();
}

/** Repository files a source file imports for their values (`import type` and packages are not followed). */
function importedFiles(source: string, fileName: string): string[] {
  const file = ts.createSourceFile(fileName, source, ts.ScriptTarget.Latest, true, ts.ScriptKind.TS);
  return file.statements.flatMap((statement) => {
    if (!ts.isImportDeclaration(statement) && !ts.isExportDeclaration(statement)) return [];
    if (ts.isImportDeclaration(statement) ? statement.importClause?.isTypeOnly : statement.isTypeOnly) return [];
    const specifier = statement.moduleSpecifier;
    if (!specifier || !ts.isStringLiteral(specifier) || !specifier.text.startsWith('.')) return [];
    const resolved = path.join(path.dirname(fileName), specifier.text).replace(/\.js$/, '.ts');
    return fs.existsSync(resolved) ? [resolved] : [];
  });
}

/** Every environment variable the loader in `entry` reads, itself or through the repository files it imports. */
export function envVarsReadBy(entry: string): string[] {
  const names = new Set<string>();
  const queue = [entry];
  const visited = new Set<string>();
  while (queue.length > 0) {
    const fileName = queue.shift()!;
    if (visited.has(fileName)) continue;
    visited.add(fileName);
    const source = fs.readFileSync(fileName, 'utf8');
    for (const name of envVarsReadIn(source, fileName)) names.add(name);
    queue.push(...importedFiles(source, fileName));
  }
  return [...names].sort();
}
