"""Drawing positions: as SVG images and in the terminal, for every board
topology."""
