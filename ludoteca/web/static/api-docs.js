// Starts Swagger UI on /docs (ludoteca/server/api_docs.py): a file, not an inline script, so the
// Content-Security-Policy can forbid inline scripts everywhere.
/* global SwaggerUIBundle */
const root = document.getElementById("swagger-ui");
SwaggerUIBundle({
  url: root.dataset.openapi,
  dom_id: "#swagger-ui",
  layout: "BaseLayout",
  deepLinking: true,
  showExtensions: true,
  showCommonExtensions: true,
  presets: [SwaggerUIBundle.presets.apis, SwaggerUIBundle.SwaggerUIStandalonePreset],
});
