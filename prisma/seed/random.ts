import { Faker, en } from '@faker-js/faker';

/**
 * Randomness for the generator. Faker builds the word pools (names, streets) once per seed; the per-row
 * work uses `Rng`, a small counter-based generator (sfc32) that costs a few integer operations per draw and
 * can be seeded per record. Seeding per record is what keeps tables independent: a child table recomputes its
 * parent's fields (and a parent its first child) from the same (seed, stream, id) without sharing state.
 */

/** FNV-1a: a stable 32-bit number for a stream name. */
export function hashString(text: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  return hash >>> 0;
}

/** murmur3's finaliser: spreads nearby inputs (ids 1, 2, 3) over the whole 32-bit range. */
export function mix32(value: number): number {
  let x = value >>> 0;
  x ^= x >>> 16;
  x = Math.imul(x, 0x85ebca6b);
  x ^= x >>> 13;
  x = Math.imul(x, 0xc2b2ae35);
  x ^= x >>> 16;
  return x >>> 0;
}

/** A Faker instance of its own for one stream (the word pools), so no other caller shifts its output. */
export function createFaker(seed: number, stream: string): Faker {
  const faker = new Faker({ locale: [en] });
  faker.seed(mix32(seed ^ hashString(stream)));
  return faker;
}

export class Rng {
  private a: number;
  private b: number;
  private c: number;
  private d = 1;

  private constructor(a: number, b: number, c: number) {
    this.a = a;
    this.b = b;
    this.c = c;
    // sfc32 needs a few rounds before nearby seeds stop producing correlated first outputs.
    for (let i = 0; i < 12; i++) this.next32();
  }

  /** The generator of one record (or, with index 0, of a whole table) of a stream. */
  static for(seed: number, stream: string, index = 0): Rng {
    const name = hashString(stream);
    return new Rng(mix32(seed ^ 0x9e3779b9), mix32(name + Math.imul(index, 0x9e3779b1)), mix32(index ^ seed ^ name));
  }

  next32(): number {
    const t = (((this.a + this.b) | 0) + this.d) | 0;
    this.d = (this.d + 1) | 0;
    this.a = this.b ^ (this.b >>> 9);
    this.b = (this.c + (this.c << 3)) | 0;
    this.c = (this.c << 21) | (this.c >>> 11);
    this.c = (this.c + t) | 0;
    return t >>> 0;
  }

  /** Uniform in [0, 1). */
  float(): number {
    return this.next32() / 4294967296;
  }

  /** Uniform integer in [0, n). */
  int(n: number): number {
    return Math.floor(this.float() * n);
  }

  /** Uniform integer in [min, max], both included. */
  between(min: number, max: number): number {
    return min + this.int(max - min + 1);
  }

  chance(probability: number): boolean {
    return this.float() < probability;
  }

  pick<T>(items: readonly T[]): T {
    return items[this.int(items.length)] as T;
  }

  /** Standard normal (Box-Muller; two draws every call keeps the stream easy to reason about). */
  normal(): number {
    const u = 1 - this.float();
    return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * this.float());
  }

  /** Log-normal around a median: sizes, prices and incomes spread this way. */
  logNormal(median: number, sigma: number): number {
    return median * Math.exp(sigma * this.normal());
  }

  /** Log-uniform in [min, max]: every order of magnitude equally likely. */
  logUniform(min: number, max: number): number {
    return min * Math.pow(max / min, this.float());
  }

  digits(count: number): string {
    let text = '';
    for (let i = 0; i < count; i++) text += String(this.int(10));
    return text;
  }

  /** A version-4 UUID drawn from this generator, so ids repeat with the seed. */
  uuid(): string {
    const w1 = hex8(this.next32());
    const w2 = hex8((this.next32() & 0xffff0fff) | 0x00004000);
    const w3 = hex8((this.next32() & 0x3fffffff) | 0x80000000);
    const w4 = hex8(this.next32());
    return `${w1}-${w2.slice(0, 4)}-${w2.slice(4)}-${w3.slice(0, 4)}-${w3.slice(4)}${w4}`;
  }
}

const HEX_BYTES = Array.from({ length: 256 }, (_, i) => i.toString(16).padStart(2, '0'));

/** Eight hex digits of a 32-bit value, by byte lookup (UUIDs are drawn per row). */
function hex8(value: number): string {
  return (
    (HEX_BYTES[(value >>> 24) & 0xff] as string) +
    (HEX_BYTES[(value >>> 16) & 0xff] as string) +
    (HEX_BYTES[(value >>> 8) & 0xff] as string) +
    (HEX_BYTES[value & 0xff] as string)
  );
}

/** Picks from weighted entries in O(log n): cumulative weights and a binary search. */
export class Weighted<T> {
  readonly values: readonly T[];
  private readonly cumulative: Float64Array;

  constructor(entries: ReadonlyArray<readonly [T, number]>) {
    this.values = entries.map(([value]) => value);
    this.cumulative = new Float64Array(entries.length);
    let total = 0;
    entries.forEach(([, weight], i) => {
      total += weight;
      this.cumulative[i] = total;
    });
  }

  pick(rng: Rng): T {
    const target = rng.float() * (this.cumulative[this.cumulative.length - 1] ?? 0);
    let low = 0;
    let high = this.cumulative.length - 1;
    while (low < high) {
      const middle = (low + high) >>> 1;
      if ((this.cumulative[middle] ?? 0) > target) high = middle;
      else low = middle + 1;
    }
    return this.values[low] as T;
  }
}
