/** Light and dark themes: the system's (prefers-color-scheme) until the user picks one with the toggle. */
export type Theme = "light" | "dark"

const KEY = "garrison.theme"

export const storedTheme = (): Theme | undefined => {
  const value = window.localStorage.getItem(KEY)
  return value === "light" || value === "dark" ? value : undefined
}

export const systemTheme = (): Theme => (window.matchMedia("(prefers-color-scheme: dark)").matches ? "dark" : "light")

export const applyTheme = (theme: Theme | undefined): void => {
  if (theme === undefined) {
    window.localStorage.removeItem(KEY)
    delete document.documentElement.dataset["theme"]
  } else {
    window.localStorage.setItem(KEY, theme)
    document.documentElement.dataset["theme"] = theme
  }
}
