import { Fragment } from 'react';
import { Link } from 'wouter';
import type { Block, Inline, Text } from './types';
import styles from './prose.module.css';

function InlinePiece({ piece }: { piece: Inline }) {
  if (typeof piece === 'string') return piece;
  if ('strong' in piece) return <strong>{piece.strong}</strong>;
  if ('code' in piece) return <code className={styles.code}>{piece.code}</code>;
  // Paths of our own site go through the router so the page changes without a reload.
  if (piece.href.startsWith('/')) return <Link href={piece.href}>{piece.link}</Link>;
  return <a href={piece.href}>{piece.link}</a>;
}

export function RichText({ text }: { text: Text }) {
  if (typeof text === 'string') return text;
  return text.map((piece, i) => (
    <Fragment key={i}>
      <InlinePiece piece={piece} />
    </Fragment>
  ));
}

// Array.isArray does not narrow readonly arrays, hence the explicit guard.
const isText = (block: Block): block is Text => typeof block === 'string' || Array.isArray(block);

function BlockView({ block }: { block: Block }) {
  if (isText(block)) {
    return (
      <p>
        <RichText text={block} />
      </p>
    );
  }
  if ('list' in block) {
    return (
      <ul className={styles.list}>
        {block.list.map((item, i) => (
          <li key={i}>
            <RichText text={item} />
          </li>
        ))}
      </ul>
    );
  }
  const { table } = block;
  return (
    <div className={styles.tableWrap}>
      <table className={styles.table}>
        <caption>{table.caption}</caption>
        <thead>
          <tr>
            {table.head.map((h) => (
              <th key={h} scope="col">
                {h}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {table.rows.map((row, r) => (
            <tr key={r}>
              {row.map((cell, c) =>
                c === 0 ? (
                  <th key={c} scope="row">
                    <RichText text={cell} />
                  </th>
                ) : (
                  <td key={c}>
                    <RichText text={cell} />
                  </td>
                ),
              )}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

/** Paragraphs, lists and tables of a static text, in the site's reading style. */
export function Blocks({ blocks }: { blocks: readonly Block[] }) {
  return blocks.map((block, i) => <BlockView key={i} block={block} />);
}
