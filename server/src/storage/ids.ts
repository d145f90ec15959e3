/**
 * Public ids are opaque strings, but rows use integer keys (text keys cost ~22% of
 * insert throughput). A keyed 4-round Feistel permutation over 64 bits maps one to the
 * other: no second index, ids that do not reveal counts, and decode rejects forgeries
 * outside the id range.
 */
export interface IdCodec {
  encode(id: number): string;
  decode(publicId: string): number | null;
}

const MAX_HIGH = 2 ** 21; // ids stay below 2^53

export function createIdCodec(secretHex: string): IdCodec {
  const keys = [0, 1, 2, 3].map((i) => parseInt(secretHex.slice(i * 8, i * 8 + 8), 16) >>> 0);
  const round = (x: number, k: number) => {
    let h = Math.imul(x ^ k, 0x9e3779b1) >>> 0;
    h = Math.imul(h ^ (h >>> 15), 0x85ebca77) >>> 0;
    return (h ^ (h >>> 13)) >>> 0;
  };
  const hex = (n: number) => n.toString(16).padStart(8, '0');
  return {
    encode(id) {
      let left = Math.floor(id / 2 ** 32) >>> 0;
      let right = id >>> 0;
      for (const k of keys) [left, right] = [right, (left ^ round(right, k)) >>> 0];
      return hex(left) + hex(right);
    },
    decode(publicId) {
      if (!/^[0-9a-f]{16}$/.test(publicId)) return null;
      let left = parseInt(publicId.slice(0, 8), 16) >>> 0;
      let right = parseInt(publicId.slice(8), 16) >>> 0;
      for (let i = keys.length - 1; i >= 0; i--) [left, right] = [(right ^ round(left, keys[i])) >>> 0, left];
      if (left >= MAX_HIGH) return null;
      const id = left * 2 ** 32 + right;
      return id >= 1 ? id : null;
    },
  };
}
