// Every stylesheet, in order: tokens first, then the document, the shared components, and each
// area's own layout. Imported by the root layout and by global-error (which replaces it).
import "./tokens.css";
import "./base.css";
import "./components.css";
import "./shell.css";
import "./gallery.css";
import "./photo.css";
import "./admin.css";
import "./settings.css";
import "./library.css";
import "./tags.css";
import "./browse.css";
import "./albums.css";
import "./shares-admin.css";
import "./proofing.css";
import "./share.css";
import "./search.css";
import "./places.css";
import "./people.css";
