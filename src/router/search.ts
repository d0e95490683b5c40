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
