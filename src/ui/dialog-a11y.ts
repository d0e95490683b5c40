// Modal semantics for antd-mobile's overlays (Dialog, Modal, Popup, ActionSheet), which render into <body> without
// them: the open overlay on top becomes a labelled modal dialog, the rest of the page is made inert, the focus moves
// into the overlay and Tab cycles inside it, and on close the focus returns to where it was.

const OVERLAY = '.adm-center-popup, .adm-popup'
const PANEL = '.adm-center-popup-wrap, .adm-popup-body'
const TITLE = '.adm-dialog-title, .adm-modal-title, .adm-dialog-content, .adm-modal-content, h1, h2, h3, .adm-action-sheet-extra'
const FOCUSABLE = 'button:not([disabled]), a[href], input:not([disabled]), select, textarea, [tabindex]:not([tabindex="-1"]), .adm-action-sheet-button-item'

let active: { panel: HTMLElement; returnTo: Element | null } | null = null
const inerted = new Set<Element>()
let idSeq = 0

const isOpen = (overlay: Element): boolean =>
  overlay instanceof HTMLElement && overlay.isConnected && overlay.style.display !== 'none' && overlay.querySelector(PANEL) !== null

const bodyChildOf = (el: Element): Element | null => {
  let at: Element | null = el
  while (at && at.parentElement !== document.body) at = at.parentElement
  return at
}

const focusables = (panel: HTMLElement): HTMLElement[] =>
  [...panel.querySelectorAll<HTMLElement>(FOCUSABLE)].filter((el) => el.getClientRects().length > 0)

const label = (panel: HTMLElement): void => {
  if (!panel.hasAttribute('role')) panel.setAttribute('role', 'dialog')
  panel.setAttribute('aria-modal', 'true')
  if (panel.hasAttribute('aria-label') || panel.hasAttribute('aria-labelledby')) return
  const title = panel.querySelector<HTMLElement>(TITLE)
  if (!title) return
  if (!title.id) title.id = `dialog-title-${++idSeq}`
  panel.setAttribute('aria-labelledby', title.id)
}

const setInert = (keep: Element | null): void => {
  for (const el of inerted) el.removeAttribute('inert')
  inerted.clear()
  if (!keep) return
  for (const child of document.body.children) {
    // toasts stay live for assistive technology while a dialog is open
    if (child === keep || child.tagName === 'SCRIPT' || child.querySelector('.adm-toast-mask')) continue
    child.setAttribute('inert', '')
    inerted.add(child)
  }
}

const update = (): void => {
  const open = [...document.querySelectorAll(OVERLAY)].filter(isOpen)
  const top = open.at(-1)
  const panel = top?.querySelector<HTMLElement>(PANEL) ?? null
  if (panel === active?.panel) return
  const previous = active
  setInert(panel ? bodyChildOf(panel) : null)
  if (panel) {
    label(panel)
    active = { panel, returnTo: previous?.returnTo ?? document.activeElement }
    if (!panel.contains(document.activeElement)) {
      const first = focusables(panel)[0]
      if (first) first.focus({ preventScroll: true })
      else {
        panel.tabIndex = -1
        panel.focus({ preventScroll: true })
      }
    }
  } else {
    active = null
    const back = previous?.returnTo
    if (back instanceof HTMLElement && back.isConnected) back.focus({ preventScroll: true })
  }
}

const trapTab = (e: KeyboardEvent): void => {
  if (e.key !== 'Tab' || !active) return
  const items = focusables(active.panel)
  if (items.length === 0) {
    e.preventDefault()
    return
  }
  const at = items.indexOf(document.activeElement as HTMLElement)
  const next = e.shiftKey ? (at <= 0 ? items.length - 1 : at - 1) : at === items.length - 1 ? 0 : at + 1
  e.preventDefault()
  items[next].focus()
}

let scheduled = false
const schedule = (): void => {
  if (scheduled) return
  scheduled = true
  queueMicrotask(() => {
    scheduled = false
    update()
  })
}

/** Installs the overlay watcher once per tab. */
export const installDialogA11y = (): void => {
  if (typeof document === 'undefined' || (window as { __dialogA11y?: true }).__dialogA11y) return
  ;(window as { __dialogA11y?: true }).__dialogA11y = true
  new MutationObserver(schedule).observe(document.body, { childList: true, subtree: true, attributes: true, attributeFilter: ['style'] })
  document.addEventListener('keydown', trapTab, true)
}
