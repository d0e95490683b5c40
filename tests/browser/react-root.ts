// A fresh element and React root for each test of a file (React's act environment on), unmounted and removed after
// it, with fake timers undone.
import { act } from 'react'
import { createRoot, type Root } from 'react-dom/client'
import { afterEach, beforeEach, vi } from 'vitest'

;(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true

export const reactRoot = (): { readonly host: HTMLDivElement; readonly root: Root } => {
  let host: HTMLDivElement | null = null
  let root: Root | null = null
  beforeEach(() => {
    host = document.createElement('div')
    document.body.append(host)
    root = createRoot(host)
  })
  afterEach(() => {
    act(() => root!.unmount())
    host!.remove()
    vi.useRealTimers()
  })
  return {
    get host() {
      return host!
    },
    get root() {
      return root!
    },
  }
}
