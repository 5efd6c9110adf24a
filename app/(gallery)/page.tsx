// / – the public gallery. Photos arrive with uploads and processing; until then it says so.
export default function GalleryPage() {
  return (
    <section className="empty-gallery">
      <h1>Contact Sheet</h1>
      <p>No public photos yet.</p>
    </section>
  );
}
