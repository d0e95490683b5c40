// Launches the system Chromium the way every browser part of the bench needs it (flags from the team brief).
import { chromium, type Browser } from 'playwright-core'
import { chromiumArgs as testArgs } from '../../tests/chromium.ts'

export const chromiumArgs = [
  ...testArgs,
  // headless tabs that are not in front must still run timers and React at full speed
  '--disable-background-timer-throttling', '--disable-renderer-backgrounding', '--disable-backgrounding-occluded-windows',
]

export const launchChromium = (): Promise<Browser> =>
  chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    headless: true,
    args: chromiumArgs,
    timeout: 60_000,
  })

export const phoneContext = { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true, locale: 'zh-CN' } as const
