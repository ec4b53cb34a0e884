"""Figures: every heatmap on the canvas component; bars, the labs' and explorer's Plotly charts."""
