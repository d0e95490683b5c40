// The tab-only validators of product-spec §5 and the masked phone display; the rules the server shares are in
// worker/protocol/validators.ts.

export const isEmail = (value: string): boolean =>
  /^[A-Za-z0-9._%+-]+@[A-Za-z0-9-]+(\.[A-Za-z0-9-]+)*\.[A-Za-z]{2,}$/.test(value)

/** Amount with up to two decimals. */
export const isAmount = (value: string): boolean => /^(0|[1-9]\d*)(\.\d{1,2})?$/.test(value)

/** First 3 digits, `****`, last 4 (138****8000); shorter values are returned unchanged. */
export const maskPhone = (phone: string): string =>
  phone.length >= 7 ? `${phone.slice(0, 3)}****${phone.slice(-4)}` : phone
