// `npm run dev`: the reference server (API and /push) on API_PORT plus the Vite dev server proxying to it.
import { spawn } from 'node:child_process'

const apiPort = process.env.API_PORT ?? '8080'
const env = { ...process.env, PORT: apiPort, API_PORT: apiPort }
const children = [
  spawn('npx', ['tsx', 'server/main.ts'], { stdio: 'inherit', env }),
  spawn('npx', ['vite'], { stdio: 'inherit', env }),
]
const stop = () => { for (const c of children) c.kill('SIGTERM') }
process.on('SIGINT', stop)
process.on('SIGTERM', stop)
for (const c of children) c.on('exit', (code) => { stop(); process.exitCode = code ?? 0 })
