export function App() {
  return <main>Doorstep</main>;
}
