"""Figures: heatmaps (Plotly and the canvas component), bars, the labs' and explorer's charts."""
