/** ajv-formats-draft2019 ships no types: the plugin adds the named draft 2019-09 formats to an Ajv instance. */
declare module 'ajv-formats-draft2019' {
  import type { Ajv } from 'ajv';
  export default function addFormats(ajv: Ajv, options?: { formats?: string[] }): Ajv;
}
