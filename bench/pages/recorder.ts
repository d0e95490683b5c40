// What a bench tab records per message: when its store held the state, when React committed it, and whether the
// events came complete and in order. Message k is the k-th counter event since the reset; its store state is found
// by the event's seq, so a core that computes the counter wrongly still gets timed (and its counter is checked apart).
import { now } from './clock.ts'

export interface TabDump {
  readonly storeAt: ReadonlyArray<number>
  readonly commitAt: ReadonlyArray<number>
  /** per-tab socket baseline only: when this tab's own socket got the frame. */
  readonly arrivalAt: ReadonlyArray<number>
  readonly events: number
  readonly duplicatedOrReordered: number
  readonly storeMax: number
  readonly commitMax: number
  /** how far the coupon counter moved since the reset (should equal the messages sent). */
  readonly counterDelta: number
}

/** Times, per message id, the first moment a watermark (store or React) reached that message's seq. */
class Watermark {
  at: Float64Array
  reached = 0
  constructor(size: number) {
    this.at = new Float64Array(size + 1)
  }
  advance(seqs: ReadonlyArray<number>, seq: number): void {
    let id = this.reached
    while (id < seqs.length && seqs[id] <= seq) id++
    if (id === this.reached) return
    const t = now()
    for (let k = this.reached + 1; k <= Math.min(id, this.at.length - 1); k++) this.at[k] = t
    this.reached = id
  }
}

export class TabRecorder {
  /** seqs[k - 1] = seq of message k's event. */
  private seqs: number[] = []
  private store_ = new Watermark(0)
  private commit_ = new Watermark(0)
  private arrivalAt = new Float64Array(1)
  private lastSeq = -Infinity
  private misordered = 0
  private counterBase = 0
  private counter = 0

  reset(count: number, counter: number): void {
    this.seqs = []
    this.store_ = new Watermark(count)
    this.commit_ = new Watermark(count)
    this.arrivalAt = new Float64Array(count + 1)
    this.lastSeq = -Infinity
    this.misordered = 0
    this.counterBase = this.counter = counter
  }

  /** a counter event with this seq reached the tab (before its store). */
  event(seq: number, counter: number): void {
    if (seq <= this.lastSeq) this.misordered++
    this.lastSeq = Math.max(this.lastSeq, seq)
    this.seqs.push(seq)
    this.counter = counter
  }

  arrival(id: number, t: number): void {
    if (id > 0 && id < this.arrivalAt.length && this.arrivalAt[id] === 0) this.arrivalAt[id] = t
  }

  /** the store now holds everything up to seq. */
  store(seq: number): void {
    this.store_.advance(this.seqs, seq)
  }

  commit(seq: number): void {
    this.commit_.advance(this.seqs, seq)
  }

  progress(): { storeMax: number; commitMax: number; events: number } {
    return { storeMax: this.store_.reached, commitMax: this.commit_.reached, events: this.seqs.length }
  }

  dump(): TabDump {
    return {
      storeAt: Array.from(this.store_.at), commitAt: Array.from(this.commit_.at), arrivalAt: Array.from(this.arrivalAt),
      events: this.seqs.length, duplicatedOrReordered: this.misordered,
      storeMax: this.store_.reached, commitMax: this.commit_.reached, counterDelta: this.counter - this.counterBase,
    }
  }
}
