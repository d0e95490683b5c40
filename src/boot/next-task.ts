// A task boundary for the page-load path: what runs before it and what runs after it are separate main-thread tasks,
// so input is handled between them (Lighthouse's blocking time counts each task's part over 50 ms at a slow phone's
// CPU). scheduler.yield() resumes ahead of other queued tasks where the browser has it.
type YieldingScheduler = { yield?: () => Promise<void> }

export const nextTask = (): Promise<void> => {
  const scheduler = (globalThis as { scheduler?: YieldingScheduler }).scheduler
  if (typeof scheduler?.yield === 'function') return scheduler.yield()
  return new Promise((resolve) => setTimeout(resolve, 0))
}
