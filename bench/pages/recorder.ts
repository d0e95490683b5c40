// What a bench tab records per message, read from its store only: message k (the k-th push since the reset) is held
// when the store's coupon counter reached base + k, whoever brought it there (an event batch or a snapshot), and is
// committed when React rendered that counter. A tab that catches up through a snapshot is on time, not lossy.
import { now } from './clock.ts'

export interface TabDump {
  readonly storeAt: ReadonlyArray<number>
  readonly commitAt: ReadonlyArray<number>
  /** per-tab socket baseline only: when this tab's own socket got the frame. */
  readonly arrivalAt: ReadonlyArray<number>
  readonly progress: TabProgress
}

export interface TabProgress {
  /** highest message the store / React has held since the reset (counter - base, capped at the run's count). */
  readonly stored: number
  readonly committed: number
  /** the store's coupon counter now, and what it was at the reset. */
  readonly counter: number
  readonly base: number
  /** the store counter went past base + count (a duplicated increment) or below base (state lost). */
  readonly overshoot: boolean
  readonly undershoot: boolean
}

/** Times the first moment a watermark (store or React) reached each message. */
class Watermark {
  readonly at: Float64Array
  reached = 0
  constructor(size: number) {
    this.at = new Float64Array(size + 1)
  }
  advance(k: number): void {
    const to = Math.min(k, this.at.length - 1)
    if (to <= this.reached) return
    const t = now()
    for (let i = this.reached + 1; i <= to; i++) this.at[i] = t
    this.reached = to
  }
}

export class TabRecorder {
  private count = 0
  private base = 0
  private counter = 0
  private overshoot = false
  private undershoot = false
  private store_ = new Watermark(0)
  private commit_ = new Watermark(0)
  private arrivalAt = new Float64Array(1)

  reset(count: number, counter: number): void {
    this.count = count
    this.base = this.counter = counter
    this.overshoot = this.undershoot = false
    this.store_ = new Watermark(count)
    this.commit_ = new Watermark(count)
    this.arrivalAt = new Float64Array(count + 1)
  }

  arrival(id: number, t: number): void {
    if (id > 0 && id < this.arrivalAt.length && this.arrivalAt[id] === 0) this.arrivalAt[id] = t
  }

  /** the store now holds this coupon counter. */
  store(counter: number): void {
    this.counter = counter
    if (counter > this.base + this.count) this.overshoot = true
    if (counter < this.base) this.undershoot = true
    this.store_.advance(counter - this.base)
  }

  /** React committed a render of this coupon counter. */
  commit(counter: number): void {
    this.commit_.advance(counter - this.base)
  }

  progress(): TabProgress {
    return {
      stored: this.store_.reached, committed: this.commit_.reached, counter: this.counter, base: this.base,
      overshoot: this.overshoot, undershoot: this.undershoot,
    }
  }

  dump(): TabDump {
    return { storeAt: Array.from(this.store_.at), commitAt: Array.from(this.commit_.at), arrivalAt: Array.from(this.arrivalAt), progress: this.progress() }
  }
}
