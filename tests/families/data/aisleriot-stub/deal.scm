;; Print the deals of an Aisleriot game for seeds: guile -s deal.scm GAME SEED...
;; with GUILE_LOAD_PATH=<this directory> (for the stand-in (aisleriot interface)),
;; GUILE_LOAD_COMPILED_PATH and AISLERIOT_GO the package's guile/3.0/ directory (with a final /).
(load "deal-common.scm")
(define game (cadr (command-line)))
(define seeds (map string->number (cddr (command-line))))
(define user (resolve-module '(guile-user)))
(load-game (string-append game ".go"))
(print-deals game seeds)
