/**
 * DSSE v1 Pre-Authentication Encoding: `DSSEv1 <len(type)> <type> <len(body)> <body>`, with
 * lengths in bytes as ASCII decimal. This, never the bare payload, is what gets signed, so a
 * signature cannot be replayed under another payload type.
 */
export function pae(payloadType: string, payload: Uint8Array): Buffer {
  const type = Buffer.from(payloadType, 'utf8');
  return Buffer.concat([Buffer.from(`DSSEv1 ${type.length} `, 'ascii'), type, Buffer.from(` ${payload.length} `, 'ascii'), payload]);
}
