"""The exact perfect-information solver both games share."""
