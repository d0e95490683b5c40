// What a person would have seen in each tab, recorded in the page from its first script on (addInitScript): every
// toast that appeared (antd-mobile's `.adm-toast-main`, with its text and time), every route the tab was on, and,
// once armed, every device name of a previous account that appeared on screen after the moment it was armed.
import type { BrowserContext, Page } from '@playwright/test'

export interface SeenToast {
  readonly text: string
  /** Date.now() in the page (same clock as the test process). */
  readonly at: number
}

export interface SeenName {
  readonly name: string
  readonly at: number
  readonly hash: string
  /** true when a name of the new account was on screen at the same time. */
  readonly mixed: boolean
}

interface Recorder {
  toasts: Array<SeenToast>
  hashes: Array<{ hash: string; at: number }>
  oldNames: Array<SeenName>
}

declare global {
  interface Window {
    __recorder?: Recorder
  }
}

/** localStorage key: the names to watch for, shared by every tab of the origin (tabs opened later see it too). */
const WATCH_KEY = '__recorderWatch'

/** Installs the recorder in every page the context opens from now on. */
export async function installRecorder(context: BrowserContext): Promise<void> {
  await context.addInitScript((watchKey: string) => {
    const rec: Recorder = { toasts: [], hashes: [], oldNames: [] }
    window.__recorder = rec
    const noteHash = () => {
      if (rec.hashes.at(-1)?.hash !== location.hash) rec.hashes.push({ hash: location.hash, at: Date.now() })
    }
    noteHash()
    for (const method of ['pushState', 'replaceState'] as const) {
      const original = history[method].bind(history)
      history[method] = (...args: Parameters<History['pushState']>) => {
        original(...args)
        noteHash()
      }
    }
    addEventListener('hashchange', noteHash)
    addEventListener('popstate', noteHash)

    const toastText = new WeakMap<Element, string>()
    const watch = (): { old: Array<string>; fresh: Array<string> } | null => {
      const raw = localStorage.getItem(watchKey)
      return raw === null ? null : (JSON.parse(raw) as { old: Array<string>; fresh: Array<string> })
    }
    const textOf = (node: Node): string => (node.nodeType === Node.TEXT_NODE ? (node as Text).data : (node.textContent ?? ''))
    new MutationObserver((mutations) => {
      const now = Date.now()
      for (const el of Array.from(document.querySelectorAll('.adm-toast-main'))) {
        const text = (el.textContent ?? '').trim()
        if (text !== '' && toastText.get(el) !== text) {
          toastText.set(el, text)
          rec.toasts.push({ text, at: now })
        }
      }
      const names = watch()
      if (names === null) return
      const screen = document.body?.innerText ?? ''
      const mixed = names.fresh.some((n) => screen.includes(n))
      for (const m of mutations) {
        const nodes = m.type === 'characterData' ? [m.target] : Array.from(m.addedNodes)
        for (const node of nodes) {
          const text = textOf(node)
          for (const name of names.old) {
            if (text.includes(name)) rec.oldNames.push({ name, at: now, hash: location.hash, mixed })
          }
        }
      }
    }).observe(document, { subtree: true, childList: true, characterData: true })
  }, WATCH_KEY)
}

/**
 * From now on every tab of the page's origin records device names of `old` that appear (and whether one of `fresh`
 * was on screen at that moment). Names already on screen when armed are not counted: they have not appeared since.
 */
export async function armNameWatch(page: Page, old: ReadonlyArray<string>, fresh: ReadonlyArray<string>): Promise<void> {
  await page.evaluate(([key, value]) => localStorage.setItem(key, value), [WATCH_KEY, JSON.stringify({ old, fresh })] as const)
}

const recorder = (page: Page): Promise<Recorder> =>
  page.evaluate(() => window.__recorder ?? { toasts: [], hashes: [], oldNames: [] })

export const toastsOf = async (page: Page): Promise<Array<SeenToast>> => (await recorder(page)).toasts
export const oldNamesSeen = async (page: Page): Promise<Array<SeenName>> => (await recorder(page)).oldNames
/** The routes (location.hash) the page went through since it loaded, each once per change. */
export const hashesOf = async (page: Page): Promise<Array<{ hash: string; at: number }>> => (await recorder(page)).hashes
