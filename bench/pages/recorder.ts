// What a bench tab records per message id: when its store held the state, when React committed it, and whether the
// events arrived complete and in order.
import { now } from './clock.ts'

export interface TabDump {
  readonly storeAt: ReadonlyArray<number>
  readonly commitAt: ReadonlyArray<number>
  /** per-tab socket baseline only: when this tab's own socket got the frame. */
  readonly arrivalAt: ReadonlyArray<number>
  readonly events: number
  readonly lost: number
  readonly duplicatedOrReordered: number
  readonly lastId: number
  readonly storeMax: number
  readonly commitMax: number
}

export class TabRecorder {
  private storeAt = new Float64Array(1)
  private commitAt = new Float64Array(1)
  private arrivalAt = new Float64Array(1)
  private storeMax = 0
  private commitMax = 0
  private lastId = 0
  private events = 0
  private lost = 0
  private misordered = 0

  reset(count: number): void {
    this.storeAt = new Float64Array(count + 1)
    this.commitAt = new Float64Array(count + 1)
    this.arrivalAt = new Float64Array(count + 1)
    this.storeMax = this.commitMax = this.lastId = this.events = this.lost = this.misordered = 0
  }

  /** an event for message id reached the tab (before the store). */
  event(id: number): void {
    this.events++
    if (id === this.lastId + 1) this.lastId = id
    else if (id > this.lastId + 1) {
      this.lost += id - this.lastId - 1
      this.lastId = id
    } else this.misordered++
  }

  arrival(id: number, t: number): void {
    if (id > 0 && id < this.arrivalAt.length && this.arrivalAt[id] === 0) this.arrivalAt[id] = t
  }

  /** the store now holds every message up to id (stores and React may coalesce several into one update). */
  store(id: number): void {
    if (id <= this.storeMax) return
    const t = now()
    const top = Math.min(id, this.storeAt.length - 1)
    for (let k = this.storeMax + 1; k <= top; k++) this.storeAt[k] = t
    this.storeMax = id
  }

  commit(id: number): void {
    if (id <= this.commitMax) return
    const t = now()
    const top = Math.min(id, this.commitAt.length - 1)
    for (let k = this.commitMax + 1; k <= top; k++) this.commitAt[k] = t
    this.commitMax = id
  }

  progress(): { storeMax: number; commitMax: number; events: number } {
    return { storeMax: this.storeMax, commitMax: this.commitMax, events: this.events }
  }

  dump(): TabDump {
    return {
      storeAt: Array.from(this.storeAt), commitAt: Array.from(this.commitAt), arrivalAt: Array.from(this.arrivalAt),
      events: this.events, lost: this.lost, duplicatedOrReordered: this.misordered, lastId: this.lastId,
      storeMax: this.storeMax, commitMax: this.commitMax,
    }
  }
}
