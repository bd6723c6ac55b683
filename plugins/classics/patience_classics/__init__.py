"""patience-classics: FreeCell, Klondike and Spider as variant files (the ``*.toml`` files of this
package, docs/families.md). patience reads them through the ``patience.variants`` entry point;
there is no code here."""
