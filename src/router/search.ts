// Query parameters are route search params as plain strings (§2 "route parameters are passed as query").

export const parseSearch = (query: string): Record<string, string> =>
  Object.fromEntries(new URLSearchParams(query.startsWith('?') ? query.slice(1) : query))

export const stringifySearch = (search: Record<string, unknown>): string => {
  const params = new URLSearchParams()
  for (const [key, value] of Object.entries(search)) {
    if (value === undefined || value === null) continue
    params.set(key, typeof value === 'string' ? value : typeof value === 'object' ? JSON.stringify(value) : String(value))
  }
  const text = params.toString()
  return text ? `?${text}` : ''
}

/**
 * A route's validateSearch: the query parameters it reads, each a string when present (a number given in a
 * navigation reads as its text); others are not part of the route's typed search.
 */
export const strings = <K extends string>(...keys: ReadonlyArray<K>) =>
  (search: Record<string, unknown>): { [P in K]?: string } => {
    const out: { [P in K]?: string } = {}
    for (const key of keys) {
      const value = search[key]
      if (typeof value === 'string') out[key] = value
      else if (typeof value === 'number') out[key] = String(value)
    }
    return out
  }
