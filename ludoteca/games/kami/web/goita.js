// Goita runs on Kami's engine (ludoteca/games/kami/goita.py): same renderer, its own name.
import kami from "./kami.js";

export default { ...kami, name: "goita" };
