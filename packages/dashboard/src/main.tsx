import { StrictMode } from "react"
import { createRoot } from "react-dom/client"
import { App } from "./app/App.js"
import { applyTheme, storedTheme } from "./app/theme.js"
import { FeedbackProvider } from "./ui/feedback.js"
import "./styles.css"

applyTheme(storedTheme())

createRoot(document.getElementById("root")!).render(
  <StrictMode>
    <FeedbackProvider>
      <App />
    </FeedbackProvider>
  </StrictMode>
)
