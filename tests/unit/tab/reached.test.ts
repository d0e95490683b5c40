// CoreClient.reached(seq) (src/core/reached.ts) over the real receiver: a command's answer names the seq it left, and
// the screen waits for exactly that state, not for a store condition with a timeout.
import { describe, expect, it } from 'vitest'
import { createReached } from '../../../src/core/reached.ts'
import { createReceiver } from '../../../src/core/receiver.ts'
import type { DownBatch, Snapshot } from '../../../worker/protocol/commands.ts'
import type { StateEvent } from '../../../worker/protocol/events.ts'
import { initialShared } from '../../../worker/protocol/projection/index.ts'

const user = { username: 'u1', userType: 1, phone: '13500135000' }
const changed: StateEvent = { _tag: 'SessionChanged', user, phone: user.phone }
const loading: StateEvent = { _tag: 'DeviceListLoading', loading: true }

const setup = () => {
  let n = 0
  const receiver = createReceiver({ onState: (s, r) => seqs.onState(s, r), onEffect: () => {}, reply: () => {} })
  const seqs = createReached(receiver.state)
  const batch = (items: DownBatch['items'], snapshot: Snapshot | null = null, generation = 'g1'): DownBatch =>
    ({ n: ++n, ack: false, generation, snapshot, items })
  receiver.receive(batch([], initialShared))
  const settled = (p: Promise<void>) => {
    const seen = { done: false }
    void p.then(() => { seen.done = true })
    return seen
  }
  return { receiver, seqs, batch, settled, tick: () => new Promise((r) => setTimeout(r, 0)) }
}

describe('reached(seq)', () => {
  it('resolves only once the event with that seq has been applied, and the store then shows it', async () => {
    const { receiver, seqs, batch, settled, tick } = setup()
    let seen: Snapshot | null = null
    const waiting = seqs.reached(2).then(() => { seen = receiver.state() })
    const flag = settled(waiting)
    receiver.receive(batch([{ seq: 1, event: loading }]))
    await tick()
    expect(flag.done).toBe(false)
    receiver.receive(batch([{ seq: 2, event: changed }]))
    await waiting
    expect(seen!.seq).toBe(2)
    expect(seen!.session).toMatchObject({ loggedIn: true, user })
  })

  it('is already there for a seq at or below the state (and for 0, the answer of a command that changed nothing)', async () => {
    const { receiver, seqs, batch } = setup()
    receiver.receive(batch([{ seq: 1, event: changed }]))
    await expect(seqs.reached(1)).resolves.toBeUndefined()
    await expect(seqs.reached(0)).resolves.toBeUndefined()
  })

  it('a snapshot (a worker that replaced the dead one) or a worker loss ends the wait instead of hanging', async () => {
    const { receiver, seqs, batch, settled, tick } = setup()
    const bySnapshot = settled(seqs.reached(50))
    receiver.receive(batch([], { ...initialShared, seq: 7 }, 'g2'))
    await tick()
    expect(bySnapshot.done).toBe(true)
    const byLoss = settled(seqs.reached(60))
    await tick()
    expect(byLoss.done).toBe(false)
    seqs.release()
    await tick()
    expect(byLoss.done).toBe(true)
  })
})
