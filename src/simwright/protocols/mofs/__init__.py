"""Metal–organic frameworks: build (PORMAKE) or read (CIF), relax with a universal
MLIP, and measure the pores with Zeo++ (:mod:`.pores`)."""
