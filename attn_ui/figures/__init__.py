"""Figures: heatmaps (Plotly and the canvas component), bars, and the labs' and explorer's charts."""
