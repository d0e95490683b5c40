// The boundary's decoders (boundary.ts) as a chunk of their own, asked for once when the worker starts so they are
// usually there before the first tab's first command; a failed load is asked for again by the next caller.
type Boundary = typeof import('./boundary.ts')

let loading: Promise<Boundary> | null = null

export const loadBoundary = (): Promise<Boundary> => {
  loading ??= import('./boundary.ts').catch((e: unknown) => {
    loading = null
    throw e
  })
  return loading
}
