/**
 * An lz-string URI component (compressToEncodedURIComponent's format) of `codes` codes that
 * decodes to a run of "a": each code names the entry it creates, one longer than the last,
 * so the text grows with the square of the codes (what makes lz-string a bomb). Built bit
 * by bit: lz-string's own compressor takes 110 s to make the 30-million-character one.
 */
const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+-$';

/** The text's length: "a", then runs of 2, 3, … codes + 1 "a"s. */
export function lzBombLength(codes: number): number {
  return 1 + ((codes + 1) * (codes + 2)) / 2 - 1;
}

export function lzBomb(codes: number): string {
  const bits: number[] = [];
  const write = (value: number, count: number) => {
    for (let i = 0; i < count; i++) bits.push((value >> i) & 1);
  };
  write(0, 2); // an 8-bit character follows
  write('a'.charCodeAt(0), 8);
  let dictSize = 4;
  let enlargeIn = 4;
  let numBits = 3;
  for (let i = 0; i < codes; i++) {
    write(dictSize, numBits); // the entry about to be made: the last one plus its first character
    dictSize += 1;
    enlargeIn -= 1;
    if (enlargeIn === 0) {
      enlargeIn = 2 ** numBits;
      numBits += 1;
    }
  }
  write(2, numBits); // the end
  while (bits.length % 6 !== 0) bits.push(0);
  let out = '';
  for (let at = 0; at < bits.length; at += 6) {
    let value = 0;
    for (let i = 0; i < 6; i++) value = (value << 1) | (bits[at + i] as number);
    out += ALPHABET[value];
  }
  return `${out}A`;
}
