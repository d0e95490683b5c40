// The one door to the network for HTTP: the global fetch live, a scripted fake in tests.
import * as Context from 'effect/Context'
import * as Layer from 'effect/Layer'

export type FetchFn = (url: string, init: RequestInit) => Promise<Response>

export class Fetcher extends Context.Service<Fetcher, FetchFn>()('cloud-phone/Fetcher') {
  static readonly layer = Layer.sync(Fetcher, (): FetchFn => (url, init) => globalThis.fetch(url, init))
  static readonly layerTest = (fetch: FetchFn) => Layer.succeed(Fetcher, fetch)
}
