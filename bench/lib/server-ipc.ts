// The messages between the bench runner and the reference server child (lib/server-child.ts).

export type ChildRequest = { readonly id: number } & (
  | { readonly kind: 'stampedBroadcast'; readonly user: string; readonly tag: string }
  | { readonly kind: 'pushStats' }
  /**
   * changes the picture of every phone of the user: each starts again with one app, named `tag`, installed; answers
   * how many and the server's Date.now() once all had changed.
   */
  | { readonly kind: 'changePhones'; readonly phone: string; readonly tag: string }
  | { readonly kind: 'memory' }
  | { readonly kind: 'gc' }
  | { readonly kind: 'mintToken'; readonly phone: string }
  /**
   * starts watching a field of every phone of the user (the simulated phone's own count, phone.ts), from its value now;
   * answers the phones watched. The child looks every millisecond and keeps when each first moved (its wall clock).
   */
  | { readonly kind: 'watchPhones'; readonly watch: number; readonly phone: string; readonly field: WatchedField }
  /** how many watched phones moved so far. */
  | { readonly kind: 'watchPeek'; readonly watch: number }
  /** waits until each of `cards` (all watched when absent) moved, or the timeout; ends the watch (WatchResult). */
  | { readonly kind: 'watchEnd'; readonly watch: number; readonly cards?: ReadonlyArray<number>; readonly timeoutMs: number }
  /** the server's group ledger (migration 130) for one command of the user (GroupLedgerRows). */
  | { readonly kind: 'groupLedger'; readonly phone: string; readonly commandId: string }
  /** raw SQL on the server's database (the chaos part reads its records and seeds codes and star coins): the rows. */
  | { readonly kind: 'query'; readonly sql: string }
  | { readonly kind: 'close' }
)

/** inputSeq: inputs the phone applied (a group text or clipboard is one); counter: its 计数器 app's count. */
export type WatchedField = 'inputSeq' | 'counter'

export interface WatchResult {
  /** per userCardId: when the field first moved (the child's performance.timeOrigin + now), null if it did not. */
  readonly at: Readonly<Record<number, number | null>>
  /** per userCardId: how far it moved from the watch's start. */
  readonly delta: Readonly<Record<number, number>>
}

export interface GroupLedgerRows {
  readonly rows: number
  readonly ok: number
  /** each phone's transaction: its start (the row's created_at) and end (plus its ms), on the child's clock, by start. */
  readonly phones: ReadonlyArray<{ readonly start: number; readonly end: number }>
}

export type ChildReply =
  | { readonly id: number; readonly ok: true; readonly value: unknown }
  | { readonly id: number; readonly ok: false; readonly error: string }

type Distribute<T> = T extends unknown ? Omit<T, 'id'> : never
export type ChildCommand = Distribute<ChildRequest>
