// Saves the phone's screenshot on the customer's device as a PNG download named after the phone and the time.
export const saveScreenshot = (png: Blob, phoneName: string): void => {
  const url = URL.createObjectURL(png)
  const a = document.createElement('a')
  const stamp = new Date().toISOString().replace(/[-:]/g, '').replace(/\..*/, '').replace('T', '-')
  a.href = url
  a.download = `${phoneName.replace(/[\\/:*?"<>|]/g, '_')}-${stamp}.png`
  document.body.appendChild(a)
  a.click()
  a.remove()
  setTimeout(() => URL.revokeObjectURL(url), 10_000)
}
