// The first screen of a document mounts in a deferred render, which React splits into slices of a few milliseconds,
// instead of inside the store update that resolved its route (a synchronous render: on a slow phone one task of
// several hundred ms, all of it blocking input while the page loads). Until then the page shows what it showed before
// (index.html's boot screen). Later navigations mount at once: showing the old screen until the new one is ready
// reads better than a blank frame, and a tap's own work is not page-load blocking time.
import { useDeferredValue, useState, type ComponentType } from 'react'
import { BOOT_SCREEN } from '../boot/boot-screen.ts'

let firstMounted = false

export const mountFirstScreenDeferred = <P extends object>(Screen: ComponentType<P>): ComponentType<P> => {
  const FirstScreenDeferred = (props: P) => {
    const [deferred] = useState(() => {
      const first = !firstMounted
      firstMounted = true
      return first
    })
    const ready = useDeferredValue(true, !deferred)
    return ready ? <Screen {...props} /> : <div className={BOOT_SCREEN.className}>{BOOT_SCREEN.text}</div>
  }
  return FirstScreenDeferred
}
