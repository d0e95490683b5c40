// The messages between the bench runner and the reference server child (lib/server-child.ts).

export type ChildRequest = { readonly id: number } & (
  | { readonly kind: 'stampedBroadcast'; readonly user: string; readonly tag: string }
  | { readonly kind: 'pushStats' }
  /** changes the picture of every phone of the user: each starts again with one app, named `tag`, installed. */
  | { readonly kind: 'changePhones'; readonly phone: string; readonly tag: string }
  | { readonly kind: 'memory' }
  | { readonly kind: 'gc' }
  | { readonly kind: 'mintToken'; readonly phone: string }
  | { readonly kind: 'close' }
)

export type ChildReply =
  | { readonly id: number; readonly ok: true; readonly value: unknown }
  | { readonly id: number; readonly ok: false; readonly error: string }

type Distribute<T> = T extends unknown ? Omit<T, 'id'> : never
export type ChildCommand = Distribute<ChildRequest>
