// Lazily loaded screens (§8, §9): a screen that has not loaded after 60 s (the async-screen limit) shows the error view;
// its chunk keeps loading meanwhile, bounded at 120 s (the chunk-load limit). A retry within those 120 s waits on
// the same chunk with a new 60 s window, so a slow chunk can still arrive and a dead one ends as a chunk-load error;
// a retry after a chunk failure imports afresh.
import { lazyRouteComponent } from '@tanstack/react-router'
import type { ComponentType } from 'react'
import { mountFirstScreenDeferred } from './first-screen.tsx'
import { ASYNC_SCREEN_TIMEOUT_MS, CHUNK_LOAD_TIMEOUT_MS } from '../../worker/protocol/constants.ts'

export class ScreenLoadTimeout extends Error {
  constructor(readonly kind: 'chunk' | 'screen') {
    super(`screen load timeout (${kind})`)
  }
}

export const within = <T>(promise: Promise<T>, ms: number, onTimeout: () => Error): Promise<T> =>
  new Promise<T>((resolve, reject) => {
    const timer = setTimeout(() => reject(onTimeout()), ms)
    promise.then(
      (value) => {
        clearTimeout(timer)
        resolve(value)
      },
      (error: unknown) => {
        clearTimeout(timer)
        reject(error)
      },
    )
  })

export type ScreenModule = { default: ComponentType }

/** One screen's loader: each call is one attempt to show the screen; attempts share the chunk while it loads. */
export const screenLoader = (importer: () => Promise<ScreenModule>): (() => Promise<ScreenModule>) => {
  let chunk: Promise<ScreenModule> | null = null
  const loadChunk = (): Promise<ScreenModule> => {
    if (chunk !== null) return chunk
    const attempt: Promise<ScreenModule> = within(importer(), CHUNK_LOAD_TIMEOUT_MS, () => new ScreenLoadTimeout('chunk'))
      .catch((error: unknown) => {
        if (chunk === attempt) chunk = null
        throw error
      })
    chunk = attempt
    return attempt
  }
  return () => within(loadChunk(), ASYNC_SCREEN_TIMEOUT_MS, () => new ScreenLoadTimeout('screen'))
}

export const lazyScreen = (importer: () => Promise<ScreenModule>) =>
  lazyRouteComponent(screenLoader(() => importer().then((m) => ({ default: mountFirstScreenDeferred(m.default) }))))
