/**
 * Exact sums of float8 values as PostgreSQL's `sum(x::numeric)` makes them, for sums the worker
 * computes in memory but stores in a numeric column: the same digits and the same scale.
 *
 * PostgreSQL turns a float8 into numeric through its text at 15 significant digits (`%.15g`:
 * rounded half to even from the exact binary value, trailing zeros dropped), and adds numerics
 * exactly at the larger scale of the two.
 */
export type Decimal = { unscaled: bigint; scale: number };

export const ZERO_DECIMAL: Decimal = { unscaled: 0n, scale: 0 };

const SIGNIFICANT = 15;
const view = new DataView(new ArrayBuffer(8));

/**
 * `x::numeric`, exactly as PostgreSQL converts it. JavaScript rounds a tie at the 15th digit half
 * up where `%.15g` rounds it half to even; a tie needs an exact value of at most 16 significant
 * digits, ending in 5, so only such a value takes the exact path.
 */
export function float8Numeric(x: number): Decimal {
  if (!Number.isFinite(x)) throw new Error(`${x} has no numeric value`);
  if (x === 0) return ZERO_DECIMAL;
  const sixteen = x.toPrecision(SIGNIFICANT + 1);
  const maybeTie = Number(sixteen) === x && /5(e|$)/.test(sixteen);
  return maybeTie ? exactNumeric(x) : parsed(x.toPrecision(SIGNIFICANT));
}

/** A decimal's text (as toPrecision writes it) as unscaled digits and scale, trailing zeros dropped. */
function parsed(text: string): Decimal {
  const [mantissa, exponent = "0"] = text.split("e");
  const [whole, fraction = ""] = mantissa.split(".");
  const digits = `${whole}${fraction}`.replace(/0+$/, "");
  const scale = fraction.length - Number(exponent) - (`${whole}${fraction}`.length - digits.length);
  if (digits === "" || digits === "-") return ZERO_DECIMAL;
  return scale >= 0
    ? { unscaled: BigInt(digits), scale }
    : { unscaled: BigInt(digits) * 10n ** BigInt(-scale), scale: 0 };
}

/** The conversion from the exact binary value, rounding at the 15th digit half to even. */
function exactNumeric(x: number): Decimal {
  view.setFloat64(0, x);
  const bits = view.getBigUint64(0);
  const biased = Number((bits >> 52n) & 0x7ffn);
  const fraction = bits & ((1n << 52n) - 1n);
  // |x| = mantissa * 2^exponent exactly; as a decimal: mantissa * 5^-exponent / 10^-exponent.
  const mantissa = biased === 0 ? fraction : fraction | (1n << 52n);
  const exponent = biased === 0 ? -1074 : biased - 1075;
  let unscaled = exponent >= 0 ? mantissa << BigInt(exponent) : mantissa * 5n ** BigInt(-exponent);
  let scale = Math.max(-exponent, 0);
  const drop = unscaled.toString().length - SIGNIFICANT;
  if (drop > 0) {
    const unit = 10n ** BigInt(drop);
    const [kept, rest, half] = [unscaled / unit, unscaled % unit, unit / 2n];
    unscaled = rest > half || (rest === half && kept % 2n === 1n) ? kept + 1n : kept;
    scale -= drop;
  }
  while (scale > 0 && unscaled % 10n === 0n) {
    unscaled /= 10n;
    scale--;
  }
  if (scale < 0) [unscaled, scale] = [unscaled * 10n ** BigInt(-scale), 0];
  return { unscaled: x < 0 ? -unscaled : unscaled, scale };
}

/** a + b as numeric adds them: exact, at the larger scale. */
export function addDecimal(a: Decimal, b: Decimal): Decimal {
  if (a.scale === b.scale) return { unscaled: a.unscaled + b.unscaled, scale: a.scale };
  const [low, high] = a.scale < b.scale ? [a, b] : [b, a];
  return { unscaled: low.unscaled * 10n ** BigInt(high.scale - low.scale) + high.unscaled, scale: high.scale };
}

/** The numeric's text, as PostgreSQL prints it (every digit of its scale). */
export function decimalText({ unscaled, scale }: Decimal): string {
  const digits = (unscaled < 0n ? -unscaled : unscaled).toString().padStart(scale + 1, "0");
  const text = scale === 0 ? digits : `${digits.slice(0, -scale)}.${digits.slice(-scale)}`;
  return unscaled < 0n ? `-${text}` : text;
}
