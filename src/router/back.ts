// The §2 back behaviour as a pure decision: replace with the stored path (clearing it and previousPagePath) when
// both are stored, otherwise one page back.

export type BackAction =
  | { readonly kind: 'replace'; readonly to: string; readonly search: Record<string, string>; readonly resetUpdateIndex: boolean }
  | { readonly kind: 'history' }

export interface BackInput {
  readonly storedPath: string | null
  readonly previousPagePath: string | null
  /** the current route's query. */
  readonly search: Readonly<Record<string, string>>
}

/** The value updateIndex is reset to when the current query carries updateIndex. */
export const UPDATE_INDEX_RESET = 'my'

const splitPath = (stored: string): { to: string; search: Record<string, string> } => {
  const clean = stored.startsWith('#') ? stored.slice(1) : stored
  const [pathname, query = ''] = clean.split('?', 2)
  const to = pathname.startsWith('/') ? pathname : `/${pathname}`
  return { to, search: Object.fromEntries(new URLSearchParams(query)) }
}

export const backAction = ({ storedPath, previousPagePath, search }: BackInput): BackAction => {
  if (!storedPath || !previousPagePath) return { kind: 'history' }
  return { kind: 'replace', ...splitPath(storedPath), resetUpdateIndex: 'updateIndex' in search }
}
