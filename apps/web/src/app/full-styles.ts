// Mantine's whole stylesheet, for the screens past the sign-in page: imported by their lazy route
// modules (the signed-in layout, the other auth forms, the 404 page), so it arrives with them and
// before they render. Layered like first-screen-styles.ts; the rules it repeats are identical.
import '@mantine/core/styles.layer.css';
import './filled-colours.css';
