// The avatar as this file's member account: a picture that is not allowed is refused before any upload; a PNG is
// uploaded with its progress shown, becomes the avatar, and another tab shows it when it opens the personal centre.
import QRCode from 'qrcode'
import { test, expect } from './fixtures.ts'
import { appUrl, login, newWorld, screenshot, type FixtureWorld } from './helpers.ts'

let world: FixtureWorld
test.beforeAll(async () => { world = await newWorld() })

test('choosing a picture uploads it as the avatar; bad pictures are refused in Chinese', async ({ context, page }) => {
  await login(page, world.accounts.member)
  await expect(page.getByTestId('device-item').first()).toBeVisible()
  await page.goto(appUrl('/package/personalInfo/personalInfo'))
  await expect(page.getByTestId('avatar-change')).toBeVisible()
  await expect(page.getByTestId('avatar-image')).toHaveCount(0)

  const input = page.getByTestId('avatar-input')
  await input.setInputFiles({ name: 'a.gif', mimeType: 'image/gif', buffer: Buffer.from('GIF89a') })
  await expect(page.getByText('仅支持 JPG、PNG、WebP 格式的图片')).toBeVisible()
  await input.setInputFiles({ name: 'big.png', mimeType: 'image/png', buffer: Buffer.alloc(2 * 1024 * 1024 + 1) })
  await expect(page.getByText('图片不能超过2MB')).toBeVisible()

  const png = await QRCode.toBuffer('avatar of the member', { width: 240 })
  await input.setInputFiles({ name: 'me.png', mimeType: 'image/png', buffer: png })
  await expect(page.getByText('头像已更新')).toBeVisible()
  const image = page.getByTestId('avatar-image').locator('img')
  await expect(image).toHaveAttribute('src', /\/api\/document\/newFile\/image\?fileKey=/)
  await expect.poll(() => image.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth)).toBe(240)
  await screenshot(page, 'personal-avatar')

  const other = await context.newPage()
  await other.goto(appUrl('/package/personalInfo/personalInfo'))
  await expect(other.getByTestId('avatar-image').locator('img')).toHaveAttribute('src', (await image.getAttribute('src'))!)
})
