import "@picocss/pico/css/pico.min.css";
import "./station.css";
import { StrictMode } from "react";
import { createRoot } from "react-dom/client";
import { StationApp } from "./App.tsx";

createRoot(document.getElementById("root")!).render(
  <StrictMode>
    <StationApp />
  </StrictMode>,
);
