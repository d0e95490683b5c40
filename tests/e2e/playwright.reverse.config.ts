// The whole e2e suite in reverse file order, on one server: proves that no file depends on data another file made.
// `npx playwright test -c tests/e2e/playwright.reverse.config.ts` (each file is a project depending on the next one,
// so Playwright runs them last file first).
import { readdirSync } from 'node:fs'
import { dirname } from 'node:path'
import { fileURLToPath } from 'node:url'
import { defineConfig, type Project } from '@playwright/test'
import base from './playwright.config.ts'

const files = readdirSync(dirname(fileURLToPath(import.meta.url))).filter((f) => f.endsWith('.e2e.ts')).sort().reverse()
const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')

const projects: Array<Project> = files.map((file, i) => ({
  name: file,
  testMatch: new RegExp(`${escape(file)}$`),
  dependencies: i === 0 ? [] : [files[i - 1]!],
}))

export default defineConfig({ ...base, projects })
