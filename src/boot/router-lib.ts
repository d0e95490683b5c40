// The router library's parts the app starts with, imported by the entry in a task of its own before the app (main.tsx):
// it is most of the app's script. Named exports, not the package's namespace, so the build still drops what is unused.
export { createHashHistory, createRouter, RouterProvider } from '@tanstack/react-router'
