"""`python -m variantkit`: the same program as the `variantkit` command."""

from variantkit.cli import main

if __name__ == "__main__":
    main()
