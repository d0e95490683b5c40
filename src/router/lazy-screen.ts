// Lazily loaded screens (§8, §9): the chunk import is bounded at 120 s (the chunk-load limit) and the screen as a
// whole at 60 s (the async-screen limit); either failure reaches the route's error view, whose retry imports again.
import { lazyRouteComponent } from '@tanstack/react-router'
import type { ComponentType } from 'react'
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

export const loadScreen = (importer: () => Promise<ScreenModule>): Promise<ScreenModule> =>
  within(
    within(importer(), CHUNK_LOAD_TIMEOUT_MS, () => new ScreenLoadTimeout('chunk')),
    ASYNC_SCREEN_TIMEOUT_MS,
    () => new ScreenLoadTimeout('screen'),
  )

export const lazyScreen = (importer: () => Promise<ScreenModule>) => lazyRouteComponent(() => loadScreen(importer))
